"""``python -m privacy_explorer`` runs the same command line as the ``explorer`` script."""

from privacy_explorer.cli import main

if __name__ == "__main__":
    main()
