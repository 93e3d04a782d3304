/* setjmp.h -- staticroof stub.  setjmp is modelled as an ordinary function. */
#ifndef _STATICROOF_SETJMP_H
#define _STATICROOF_SETJMP_H

typedef long jmp_buf[25];
typedef long sigjmp_buf[25];

int setjmp(jmp_buf env);
void longjmp(jmp_buf env, int val);
int sigsetjmp(sigjmp_buf env, int savemask);
void siglongjmp(sigjmp_buf env, int val);

#endif /* _STATICROOF_SETJMP_H */
