/*
 * x86intrin.h -- staticroof stub (all x86 intrinsics intrinsics).
 *
 * Minimal on purpose: only the vector types from _staticroof_simd.h are
 * provided; the intrinsic functions themselves are not declared.
 */
#ifndef _STATICROOF_X86INTRIN_H
#define _STATICROOF_X86INTRIN_H

#include "_staticroof_simd.h"

#endif /* _STATICROOF_X86INTRIN_H */
