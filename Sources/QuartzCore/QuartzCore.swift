// QuartzCore — Apple's Core Animation API for Linux: layers, animations, timing, transactions.
//
// Design note
// -----------
// Class names, Swift signatures, defaults and raw strings are Apple's. This module evaluates what
// the screen would show at any media time (model tree → presentation tree); it draws pixels only
// through `CGContext` calls. Time is a parameter: `CACurrentMediaTime()` reads `CAMediaClock`,
// which tests set by hand (see README, "Deterministic time").
@_exported import CoreGraphics
