"""staticroof: static roofline analysis of compute kernels.

Front ends (C via pycparser) lower source to one loop IR; the analyses count floating-point
work W and DRAM traffic Q exactly (isl/barvinok) and symbolically (sympy); reports format them.
"""

__version__ = "0.1.0"
