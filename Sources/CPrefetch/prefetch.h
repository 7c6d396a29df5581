// A hint to the processor to start loading a cache line that will be read soon. Swift has no way
// to say this (it is a compiler builtin, not a function), hence this one C line, inlined into the
// Swift kernels that include it; nothing is linked.
#pragma once
static inline __attribute__((always_inline)) void mercurial_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}
