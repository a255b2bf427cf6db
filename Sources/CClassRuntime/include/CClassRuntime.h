// What the Objective-C runtime gives Core Animation and Swift on Linux lacks: making an instance
// of a class known only at run time. Core Animation makes presentation copies with
// `[[layer class] alloc] initWithLayer:]` and UIKit a view's layer with `[[layerClass alloc]
// init]`; Swift can call an initializer through a metatype only when it is `required`, and
// Apple's `init()` and `init(layer:)` are not. These are calls into the Swift runtime's stable
// entry points (swift_allocObject, swift_lookUpClassMethod, swift_weakCopyInit,
// swift_unownedRetain) and reads of the class metadata's documented layout (the Swift ABI's
// TargetClassMetadata, Linux: no Objective-C interop words).
#pragma once
#include <stddef.h>

/// The instance size in bytes of the class with Swift class metadata `metadata`.
size_t citrine_class_instance_size(const void *metadata);

/// A new instance of the class with metadata `metadata` (its header set, reference count 1),
/// its stored properties uninitialized: the caller initializes every one before it is used.
void *citrine_class_alloc_instance(const void *metadata);

/// `[[cls alloc] init]` for a subclass of `CALayer`: calls the class's own `init()` (its vtable
/// entry for CALayer's `init()`) with the class as `Self`; returns the new instance, +1. A class
/// that does not inherit or override `init()` traps there with Swift's "Use of unimplemented
/// initializer 'init()'", as the same code does on Apple.
void *citrine_layer_alloc_init(const void *metadata);

/// `[[cls alloc] init]` for a subclass of `CAAnimation`, as `citrine_layer_alloc_init`.
void *citrine_animation_alloc_init(const void *metadata);

/// Initializes the weak reference at `dest` to what the weak reference at `src` refers to.
void citrine_weak_copy_init(void *dest, void *src);

/// Adds an unowned reference to `object` (a native Swift object or NULL).
void citrine_unowned_retain(void *object);

/// `[[cls alloc] initWithLayer:layer]` for a subclass of `CALayer`: calls the class's vtable
/// entry for CALayer's `init(layer:)` with the class as `Self` and `layer` (an initialized Swift
/// `Any`, which the call consumes); returns the new instance, +1. Traps in a class that declares
/// initializers of its own without `init(layer:)` (Swift's stub), as the same code does on Apple.
void *citrine_layer_alloc_init_layer(const void *metadata, void *layer);

/// Runs `body(context)` in a child process forked from this one, with its standard error
/// discarded and the default action for every signal a trap raises: 1 when the child returns
/// from `body` normally, 0 when it dies by a signal, does not end within `timeout_ms`
/// milliseconds (it is killed), or cannot be forked. The child never returns to the caller.
int citrine_returns_in_child(void (*body)(void *context), void *context, int timeout_ms);
