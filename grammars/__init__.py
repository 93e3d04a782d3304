"""Data the front ends load: stub headers and the math cost table (not code)."""
