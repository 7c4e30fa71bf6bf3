"""Build an interactive, precomputed course site from Markdown lessons and compute modules."""

__version__ = "0.1.0"
