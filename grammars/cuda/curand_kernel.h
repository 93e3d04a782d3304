/* staticroof stub: the device API of cuRAND.  A generator's state lives in registers: here it is
 * an opaque 8-byte integer (a state array in global memory therefore counts 8 bytes per element,
 * not the real state's size).  The generators' costs are in grammars/cuda.toml ([intrinsics],
 * kind "rng"). */
#ifndef STATICROOF_CURAND_KERNEL_H
#define STATICROOF_CURAND_KERNEL_H
#include <cuda_runtime.h>
typedef unsigned long long curandState;
typedef unsigned long long curandState_t;
typedef unsigned long long curandStateXORWOW;
typedef unsigned long long curandStateXORWOW_t;
typedef unsigned long long curandStatePhilox4_32_10;
typedef unsigned long long curandStatePhilox4_32_10_t;
typedef unsigned long long curandStateMRG32k3a;
typedef unsigned long long curandStateMRG32k3a_t;
typedef unsigned long long curandStateSobol32;
typedef unsigned long long curandStateSobol32_t;
typedef unsigned long long curandStateScrambledSobol32_t;
#endif
