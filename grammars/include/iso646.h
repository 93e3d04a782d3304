/* iso646.h -- staticroof stub (C95 alternative operator spellings). */
#ifndef _STATICROOF_ISO646_H
#define _STATICROOF_ISO646_H

#define and    &&
#define and_eq &=
#define bitand &
#define bitor  |
#define compl  ~
#define not    !
#define not_eq !=
#define or     ||
#define or_eq  |=
#define xor    ^
#define xor_eq ^=

#endif /* _STATICROOF_ISO646_H */
