/*
 * stdnoreturn.h -- staticroof stub (C11).
 * `noreturn` expands to nothing: the function specifier carries no
 * information the analyzer needs.
 */
#ifndef _STATICROOF_STDNORETURN_H
#define _STATICROOF_STDNORETURN_H

#define noreturn

#endif /* _STATICROOF_STDNORETURN_H */
