"""``python -m explorer`` runs the same command line as the ``explorer`` script."""

from explorer.cli import main

if __name__ == "__main__":
    main()
