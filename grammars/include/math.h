/*
 * math.h -- staticroof stub.
 *
 * The analyzer reads the result type of a math call from the prototypes
 * below, so every C99 function is declared in its double, float (suffix f)
 * and long double (suffix l) form with the standard return and argument
 * types.  Pure C99; no compiler built-ins.
 */
#ifndef _STATICROOF_MATH_H
#define _STATICROOF_MATH_H

#include "_staticroof_types.h"

typedef float float_t;
typedef double double_t;

/* ---- constants -------------------------------------------------------- */
/* Constant expressions of type float; 1e40 is beyond FLT_MAX so the
 * conversion yields +infinity on IEEE 754 targets. */
#define INFINITY   ((float)1e40)
#define NAN        (0.0f / 0.0f)
#define HUGE_VALF  ((float)1e40)
#define HUGE_VAL   ((double)1e400)
#define HUGE_VALL  ((long double)1e400)

#define FP_NAN        0
#define FP_INFINITE   1
#define FP_ZERO       2
#define FP_SUBNORMAL  3
#define FP_NORMAL     4

#define FP_ILOGB0     (-2147483647 - 1)
#define FP_ILOGBNAN   (-2147483647 - 1)

#define MATH_ERRNO        1
#define MATH_ERREXCEPT    2
#define math_errhandling  (MATH_ERRNO | MATH_ERREXCEPT)

/* POSIX / XSI constants (double literals). */
#define M_E         2.7182818284590452354
#define M_LOG2E     1.4426950408889634074
#define M_LOG10E    0.43429448190325182765
#define M_LN2       0.69314718055994530942
#define M_LN10      2.30258509299404568402
#define M_PI        3.14159265358979323846
#define M_PI_2      1.57079632679489661923
#define M_PI_4      0.78539816339744830962
#define M_1_PI      0.31830988618379067154
#define M_2_PI      0.63661977236758134308
#define M_2_SQRTPI  1.12837916709551257390
#define M_SQRT2     1.41421356237309504880
#define M_SQRT1_2   0.70710678118654752440

/* ---- classification and comparison macros ------------------------------ */
/* Each expands to a call of a declared function returning int. */
int __sr_fpclassify(double);
int __sr_isfinite(double);
int __sr_isinf(double);
int __sr_isnan(double);
int __sr_isnormal(double);
int __sr_signbit(double);
int __sr_isgreater(double, double);
int __sr_isgreaterequal(double, double);
int __sr_isless(double, double);
int __sr_islessequal(double, double);
int __sr_islessgreater(double, double);
int __sr_isunordered(double, double);

#define fpclassify(x)         __sr_fpclassify(x)
#define isfinite(x)           __sr_isfinite(x)
#define isinf(x)              __sr_isinf(x)
#define isnan(x)              __sr_isnan(x)
#define isnormal(x)           __sr_isnormal(x)
#define signbit(x)            __sr_signbit(x)
#define isgreater(x, y)       __sr_isgreater((x), (y))
#define isgreaterequal(x, y)  __sr_isgreaterequal((x), (y))
#define isless(x, y)          __sr_isless((x), (y))
#define islessequal(x, y)     __sr_islessequal((x), (y))
#define islessgreater(x, y)   __sr_islessgreater((x), (y))
#define isunordered(x, y)     __sr_isunordered((x), (y))

/* ---- Trigonometric functions ---- */
double acos(double);
double asin(double);
double atan(double);
double atan2(double, double);
double cos(double);
double sin(double);
double tan(double);

float acosf(float);
float asinf(float);
float atanf(float);
float atan2f(float, float);
float cosf(float);
float sinf(float);
float tanf(float);

long double acosl(long double);
long double asinl(long double);
long double atanl(long double);
long double atan2l(long double, long double);
long double cosl(long double);
long double sinl(long double);
long double tanl(long double);

/* ---- Hyperbolic functions ---- */
double acosh(double);
double asinh(double);
double atanh(double);
double cosh(double);
double sinh(double);
double tanh(double);

float acoshf(float);
float asinhf(float);
float atanhf(float);
float coshf(float);
float sinhf(float);
float tanhf(float);

long double acoshl(long double);
long double asinhl(long double);
long double atanhl(long double);
long double coshl(long double);
long double sinhl(long double);
long double tanhl(long double);

/* ---- Exponential and logarithmic functions ---- */
double exp(double);
double exp2(double);
double expm1(double);
double frexp(double, int *);
int ilogb(double);
double ldexp(double, int);
double log(double);
double log10(double);
double log1p(double);
double log2(double);
double logb(double);
double modf(double, double *);
double scalbn(double, int);
double scalbln(double, long);

float expf(float);
float exp2f(float);
float expm1f(float);
float frexpf(float, int *);
int ilogbf(float);
float ldexpf(float, int);
float logf(float);
float log10f(float);
float log1pf(float);
float log2f(float);
float logbf(float);
float modff(float, float *);
float scalbnf(float, int);
float scalblnf(float, long);

long double expl(long double);
long double exp2l(long double);
long double expm1l(long double);
long double frexpl(long double, int *);
int ilogbl(long double);
long double ldexpl(long double, int);
long double logl(long double);
long double log10l(long double);
long double log1pl(long double);
long double log2l(long double);
long double logbl(long double);
long double modfl(long double, long double *);
long double scalbnl(long double, int);
long double scalblnl(long double, long);

/* ---- Power and absolute value functions ---- */
double cbrt(double);
double fabs(double);
double hypot(double, double);
double pow(double, double);
double sqrt(double);

float cbrtf(float);
float fabsf(float);
float hypotf(float, float);
float powf(float, float);
float sqrtf(float);

long double cbrtl(long double);
long double fabsl(long double);
long double hypotl(long double, long double);
long double powl(long double, long double);
long double sqrtl(long double);

/* ---- Error and gamma functions ---- */
double erf(double);
double erfc(double);
double lgamma(double);
double tgamma(double);

float erff(float);
float erfcf(float);
float lgammaf(float);
float tgammaf(float);

long double erfl(long double);
long double erfcl(long double);
long double lgammal(long double);
long double tgammal(long double);

/* ---- Nearest integer functions ---- */
double ceil(double);
double floor(double);
double nearbyint(double);
double rint(double);
long lrint(double);
long long llrint(double);
double round(double);
long lround(double);
long long llround(double);
double trunc(double);

float ceilf(float);
float floorf(float);
float nearbyintf(float);
float rintf(float);
long lrintf(float);
long long llrintf(float);
float roundf(float);
long lroundf(float);
long long llroundf(float);
float truncf(float);

long double ceill(long double);
long double floorl(long double);
long double nearbyintl(long double);
long double rintl(long double);
long lrintl(long double);
long long llrintl(long double);
long double roundl(long double);
long lroundl(long double);
long long llroundl(long double);
long double truncl(long double);

/* ---- Remainder functions ---- */
double fmod(double, double);
double remainder(double, double);
double remquo(double, double, int *);

float fmodf(float, float);
float remainderf(float, float);
float remquof(float, float, int *);

long double fmodl(long double, long double);
long double remainderl(long double, long double);
long double remquol(long double, long double, int *);

/* ---- Manipulation functions ---- */
double copysign(double, double);
double nan(const char *);
double nextafter(double, double);
double nexttoward(double, long double);

float copysignf(float, float);
float nanf(const char *);
float nextafterf(float, float);
float nexttowardf(float, long double);

long double copysignl(long double, long double);
long double nanl(const char *);
long double nextafterl(long double, long double);
long double nexttowardl(long double, long double);

/* ---- Maximum, minimum, positive difference, multiply-add functions ---- */
double fdim(double, double);
double fmax(double, double);
double fmin(double, double);
double fma(double, double, double);

float fdimf(float, float);
float fmaxf(float, float);
float fminf(float, float);
float fmaf(float, float, float);

long double fdiml(long double, long double);
long double fmaxl(long double, long double);
long double fminl(long double, long double);
long double fmal(long double, long double, long double);

/* ---- common extensions (glibc/BSD), declared for convenience ---------- */
void sincos(double, double *, double *);
void sincosf(float, float *, float *);
void sincosl(long double, long double *, long double *);

#endif /* _STATICROOF_MATH_H */
