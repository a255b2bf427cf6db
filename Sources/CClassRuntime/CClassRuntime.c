#include "CClassRuntime.h"
#include <stdint.h>

// The Swift runtime's entry points (libswiftCore, stable ABI).
extern void *swift_allocObject(const void *metadata, size_t requiredSize, size_t requiredAlignmentMask);
extern const void *swift_lookUpClassMethod(const void *metadata, const void *method, const void *description);
extern void *swift_weakCopyInit(void *dest, void *src);
extern void *swift_unownedRetain(void *object);

// The start of Swift's class metadata without Objective-C interop (swift/ABI/Metadata.h,
// TargetClassMetadata): kind, superclass, flags, instance address point, instance size,
// instance alignment mask.
struct ClassMetadataHead {
    const void *kind;
    const void *superclass;
    uint32_t flags;
    uint32_t instanceAddressPoint;
    uint32_t instanceSize;
    uint16_t instanceAlignMask;
};

size_t citrine_class_instance_size(const void *metadata) {
    return ((const struct ClassMetadataHead *)metadata)->instanceSize;
}

void *citrine_class_alloc_instance(const void *metadata) {
    const struct ClassMetadataHead *head = metadata;
    return swift_allocObject(metadata, head->instanceSize, head->instanceAlignMask);
}

// The method descriptors of `init()` and the class descriptors of QuartzCore's CALayer and
// CAAnimation (their Swift mangled names): the keys of those initializers' vtable entries.
extern const char citrine_layer_init_method __asm__("$s10QuartzCore7CALayerCACycfCTq");
extern const char citrine_layer_class __asm__("$s10QuartzCore7CALayerCMn");
extern const char citrine_animation_init_method __asm__("$s10QuartzCore11CAAnimationCACycfCTq");
extern const char citrine_animation_class __asm__("$s10QuartzCore11CAAnimationCMn");

// A vtable entry of an initializer is its allocating entry point: Swift's calling convention,
// the metatype as `self` (the swift_context register), the new instance returned +1.
typedef void *AllocatingInit(void *__attribute__((swift_context)) metatype) __attribute__((swiftcall));

static void *alloc_init(const void *metadata, const void *method, const void *description) {
    AllocatingInit *init = (AllocatingInit *)swift_lookUpClassMethod(metadata, method, description);
    return init((void *)metadata);
}

void *citrine_layer_alloc_init(const void *metadata) {
    return alloc_init(metadata, &citrine_layer_init_method, &citrine_layer_class);
}

void *citrine_animation_alloc_init(const void *metadata) {
    return alloc_init(metadata, &citrine_animation_init_method, &citrine_animation_class);
}

void citrine_weak_copy_init(void *dest, void *src) { swift_weakCopyInit(dest, src); }

void citrine_unowned_retain(void *object) {
    if (object) swift_unownedRetain(object);
}

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern const char citrine_layer_init_layer_method __asm__("$s10QuartzCore7CALayerC5layerACyp_tcfCTq");

// `init(layer:)`'s allocating entry point: the `Any` argument indirectly (an address the callee
// takes the value from), the metatype as `self`.
typedef void *AllocatingInitWithAny(void *any, void *__attribute__((swift_context)) metatype) __attribute__((swiftcall));

void *citrine_layer_alloc_init_layer(const void *metadata, void *layer) {
    AllocatingInitWithAny *init =
        (AllocatingInitWithAny *)swift_lookUpClassMethod(metadata, &citrine_layer_init_layer_method, &citrine_layer_class);
    return init(layer, (void *)metadata);
}

int citrine_returns_in_child(void (*body)(void *context), void *context, int timeout_ms) {
    pid_t child = fork();
    if (child < 0) return 0;
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDERR_FILENO);
        // A trap ends the child at once (no crash report, no backtracer).
        signal(SIGILL, SIG_DFL);
        signal(SIGTRAP, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        body(context);
        _exit(0);
    }
    int status = 0;
    for (int waited = 0;; waited++) {
        pid_t done = waitpid(child, &status, WNOHANG);
        if (done == child) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (done < 0 || waited >= timeout_ms) break;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    return 0;
}
