// Every thread gets an alternate signal stack as it starts: the crash handler (SA_ONSTACK) then
// has a stack to run on when a thread's own overflowed, so the terminal is restored and the
// backtrace written whichever thread crashed (Swift's cooperative pool, NIO's, ours).
//
// pthread_create is wrapped (the executable's definition takes the place of libc's for the code
// linked into it, Dispatch and Foundation included): the new thread runs a trampoline that sets
// its stack, then the real start routine. The stack is unmapped when the thread ends.
#define _GNU_SOURCE
#include "signal_stacks.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>

// Room for the crash handler and Swift's backtracer's request on a thread with no stack left.
#define STACK_BYTES (256 * 1024)

static pthread_key_t stack_key;
static pthread_once_t stack_key_once = PTHREAD_ONCE_INIT;

static void release_stack(void *stack) {
    stack_t none = {.ss_flags = SS_DISABLE};
    sigaltstack(&none, NULL);
    munmap(stack, STACK_BYTES);
}

static void make_key(void) { pthread_key_create(&stack_key, release_stack); }

int fakenft_give_signal_stack(void) {
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return 0;  // has one
    void *stack = mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) return -1;
    stack_t given = {.ss_sp = stack, .ss_size = STACK_BYTES, .ss_flags = 0};
    if (sigaltstack(&given, NULL) != 0) {
        munmap(stack, STACK_BYTES);
        return -1;
    }
    pthread_once(&stack_key_once, make_key);
    pthread_setspecific(stack_key, stack);
    return 0;
}

struct start {
    void *(*routine)(void *);
    void *argument;
};

static void *start_with_signal_stack(void *pointer) {
    struct start start = *(struct start *)pointer;
    free(pointer);
    fakenft_give_signal_stack();
    return start.routine(start.argument);
}

typedef int (*create_function)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*routine)(void *), void *argument) {
    static create_function real;
    if (!real) real = (create_function)dlsym(RTLD_NEXT, "pthread_create");
    if (!real) return 11;  // EAGAIN: no way to make threads at all
    struct start *start = malloc(sizeof *start);
    if (!start) return real(thread, attributes, routine, argument);
    start->routine = routine;
    start->argument = argument;
    int result = real(thread, attributes, start_with_signal_stack, start);
    if (result != 0) free(start);
    return result;
}
