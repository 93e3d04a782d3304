/*
 * assert.h -- staticroof stub.
 * Deliberately guarded like the other stubs (the real header may be
 * re-included with a different NDEBUG; the analyzer does not need that).
 */
#ifndef _STATICROOF_ASSERT_H
#define _STATICROOF_ASSERT_H

void __sr_assert_fail(const char *expr, const char *file, int line);

#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) \
    ((expr) ? (void)0 : __sr_assert_fail(#expr, __FILE__, __LINE__))
#endif

#endif /* _STATICROOF_ASSERT_H */
