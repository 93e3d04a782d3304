/*
 * _staticroof_simd.h -- vector types for the x86 intrinsics stubs.
 *
 * Internal header.  The SIMD vector types are modelled as plain structs of
 * the right element type and count, so that declarations using them parse.
 * No intrinsic functions are declared: calls to them still parse, but the
 * analyzer has no prototype for them.
 */
#ifndef _STATICROOF_SIMD_H
#define _STATICROOF_SIMD_H

typedef struct { float __sr_v[2]; } __m64;
typedef struct { float __sr_v[4]; } __m128;
typedef struct { double __sr_v[2]; } __m128d;
typedef struct { long long __sr_v[2]; } __m128i;
typedef struct { float __sr_v[8]; } __m256;
typedef struct { double __sr_v[4]; } __m256d;
typedef struct { long long __sr_v[4]; } __m256i;
typedef struct { float __sr_v[16]; } __m512;
typedef struct { double __sr_v[8]; } __m512d;
typedef struct { long long __sr_v[8]; } __m512i;
typedef unsigned char __mmask8;
typedef unsigned short __mmask16;
typedef unsigned int __mmask32;
typedef unsigned long long __mmask64;

#define _MM_HINT_T0   3
#define _MM_HINT_T1   2
#define _MM_HINT_T2   1
#define _MM_HINT_NTA  0

#endif /* _STATICROOF_SIMD_H */
