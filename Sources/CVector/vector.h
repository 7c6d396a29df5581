// The kernels' few lines of C, each for something Swift cannot say; all inlined into the Swift
// kernels that include them, nothing is linked.
#pragma once

// A hint to the processor to start loading a cache line that will be read soon (a compiler
// builtin, not a function).
static inline __attribute__((always_inline)) void mercurial_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

// Eight square roots, or quotients, in one instruction where the CPU has one. Swift's
// SIMD8<Float>.squareRoot() and its division take each lane on its own and leave the optimizer to
// regroup them, which it did in halves (two SSE instructions each, on the AVX build too); a C vector
// says it at once. IEEE square roots and quotients either way: the same bits, lane for lane.
typedef float mercurial_float8 __attribute__((ext_vector_type(8)));
static inline __attribute__((always_inline)) mercurial_float8 mercurial_sqrt8(mercurial_float8 x) {
    return __builtin_elementwise_sqrt(x);
}
static inline __attribute__((always_inline)) mercurial_float8 mercurial_div8(mercurial_float8 a, mercurial_float8 b) {
    return a / b;
}

// Eight floats from any address (no alignment needed). Swift's generic loadUnaligned stayed a call
// per load in the lighting kernel.
static inline __attribute__((always_inline)) mercurial_float8 mercurial_load8(const float *p) {
    mercurial_float8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

// The same on sixteen lanes (two AVX registers): two independent chains of operations side by side.
typedef float mercurial_float16 __attribute__((ext_vector_type(16)));
static inline __attribute__((always_inline)) mercurial_float16 mercurial_sqrt16(mercurial_float16 x) {
    return __builtin_elementwise_sqrt(x);
}
static inline __attribute__((always_inline)) mercurial_float16 mercurial_div16(mercurial_float16 a, mercurial_float16 b) {
    return a / b;
}
