"""`staticroof validate`: the static prediction of each kernel beside what Nsight Compute measured
for its launches (readers and the measured point are in staticroof.ncu)."""
