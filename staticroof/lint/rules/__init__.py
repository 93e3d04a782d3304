"""Lint rule groups, one module each (see lint/registry.py for the codes)."""
