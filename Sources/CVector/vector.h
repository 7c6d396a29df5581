// The kernels' few lines of C, each for something Swift cannot say; all inlined into the Swift
// kernels that include them, nothing is linked.
#pragma once

// A hint to the processor to start loading a cache line that will be read soon (a compiler
// builtin, not a function).
static inline __attribute__((always_inline)) void mercurial_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

// The same for a cache line that will be written soon (fetched ready to be written).
static inline __attribute__((always_inline)) void mercurial_prefetch_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

typedef float mercurial_float8 __attribute__((ext_vector_type(8)));

// Eight floats from any address (no alignment needed). Swift's generic loadUnaligned stayed a call
// per load in the lighting kernel.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_load8(const float *p) {
    mercurial_float8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

// Sixteen square roots, or quotients, as vector instructions (two AVX registers: two independent
// chains of operations side by side). Swift's SIMD square root and division take each lane on its
// own and leave the optimizer to regroup them, which it did in SSE halves, on the AVX build too; a C
// vector says it at once. IEEE square roots and quotients either way: the same bits, lane for lane.
typedef float mercurial_float16 __attribute__((ext_vector_type(16)));
static inline __attribute__((always_inline)) mercurial_float16 mercurial_sqrt16(mercurial_float16 x) {
    return __builtin_elementwise_sqrt(x);
}
static inline __attribute__((always_inline)) mercurial_float16 mercurial_div16(mercurial_float16 a, mercurial_float16 b) {
    return a / b;
}
