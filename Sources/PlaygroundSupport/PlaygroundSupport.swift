// PlaygroundSupport — `import PlaygroundSupport` as in an Xcode playground: the page's live view
// and its execution, for code that `citrine play` and `citrine render` run (a `.swift` file or
// a `.playground` folder).
//
// Design note
// -----------
// On Apple the playground host reads `PlaygroundPage.current.liveView` once the page's top-level
// code has run and shows it live; Citrine's command line does the same: it compiles the user's
// code against Citrine's modules into a library (cached by content), loads it into its own
// process, runs the top-level code, then hosts the live view in a window (`play`) or exports it
// (`render`). This module only holds what the page sets; it knows nothing of windows or files.
//
// Citrine extension: a `CALayer` is a live view too (a layer alone is how Core Animation lessons
// often start); on Apple it would be wrapped in a view.
@_exported import UIKit
