/*
 * xmmintrin.h -- staticroof stub (SSE intrinsics).
 *
 * Minimal on purpose: only the vector types from _staticroof_simd.h are
 * provided; the intrinsic functions themselves are not declared.
 */
#ifndef _STATICROOF_XMMINTRIN_H
#define _STATICROOF_XMMINTRIN_H

#include "_staticroof_simd.h"

#endif /* _STATICROOF_XMMINTRIN_H */
