// Timing of whole CARenderer frames, shared by the layer benchmarks.
import Compositor
import Foundation
import QuartzCore

/// Milliseconds `renderer` takes to draw the frame at media time `t` (the media clock set to `t`).
public func frameMilliseconds(_ renderer: CARenderer, at t: CFTimeInterval) -> Double {
    CAMediaClock.setManualTime(t)
    let start = DispatchTime.now().uptimeNanoseconds
    renderer.beginFrame(atTime: t)
    renderer.render()
    renderer.endFrame()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// `{"median_ms": …, "min_ms": …, "n": …}` of `times` (sorted in place; at least one).
public func statsJSON(_ times: inout [Double]) -> String {
    times.sort()
    return String(format: "{\"median_ms\": %.2f, \"min_ms\": %.2f, \"n\": %d}", times[times.count / 2], times[0], times.count)
}
