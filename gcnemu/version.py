"""The package version, in a module of its own so that any stage can name it without importing
the package root (which imports every stage)."""
__version__ = "0.1.0"
