// Swift Testing's cross-import overlay for UIKit. The toolchain's `Testing.swiftcrossimport`
// names `_Testing_UIKit` as the module to load when a file imports both Testing and UIKit; on
// Apple it adds UIKit attachments, here there is nothing to add, so it only re-exports Testing.
@_exported import Testing
