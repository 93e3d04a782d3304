/*
 * immintrin.h -- staticroof stub (all x86 SIMD extensions intrinsics).
 *
 * Minimal on purpose: only the vector types from _staticroof_simd.h are
 * provided; the intrinsic functions themselves are not declared.
 */
#ifndef _STATICROOF_IMMINTRIN_H
#define _STATICROOF_IMMINTRIN_H

#include "_staticroof_simd.h"

#endif /* _STATICROOF_IMMINTRIN_H */
