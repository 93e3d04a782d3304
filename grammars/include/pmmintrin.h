/*
 * pmmintrin.h -- staticroof stub (SSE3 intrinsics).
 *
 * Minimal on purpose: only the vector types from _staticroof_simd.h are
 * provided; the intrinsic functions themselves are not declared.
 */
#ifndef _STATICROOF_PMMINTRIN_H
#define _STATICROOF_PMMINTRIN_H

#include "_staticroof_simd.h"

#endif /* _STATICROOF_PMMINTRIN_H */
