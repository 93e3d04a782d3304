/*
 * tgmath.h -- staticroof stub.
 *
 * Only makes the <math.h> and <complex.h> declarations visible; no
 * type-generic macros are defined, so e.g. sqrt(x) always names the
 * double function even when x is a float.
 */
#ifndef _STATICROOF_TGMATH_H
#define _STATICROOF_TGMATH_H

#include "math.h"
#include "complex.h"

#endif /* _STATICROOF_TGMATH_H */
