#ifndef FAKENFT_SIGNAL_STACKS_H
#define FAKENFT_SIGNAL_STACKS_H

/// Gives the calling thread an alternate signal stack unless it has one, so that a handler
/// installed with SA_ONSTACK runs even after the thread's own stack overflowed. Threads this
/// process creates get one as they start (pthread_create is wrapped); call it for the main thread.
/// Returns 0, or -1 when no stack could be set.
int fakenft_give_signal_stack(void);

#endif
