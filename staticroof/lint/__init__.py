"""`staticroof lint`: rules over the analysis results that say what a kernel costs on the roofline
(registry.py lists the codes; rules/ holds one module per group; engine.py runs them)."""
