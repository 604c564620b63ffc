"""The version of statecrawl, in a module of its own so that every part can name it without
importing the package."""

__version__ = "0.1.0"
