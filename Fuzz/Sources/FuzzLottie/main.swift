import Compositor
import Foundation
import FuzzSupport
import Lottie
import QuartzCore

runFuzzer { data, size in fuzzLottie(data ?? UnsafePointer(bitPattern: 1)!, size) }

/// One fuzz input (exported as LLVMFuzzerTestOneInput too, which libFuzzer's runtime needs): any
/// byte string is read as a Bodymovin file; when it imports, the layer tree is drawn into a
/// 64 × 64 target at its first frame and half way. An import error is a fine outcome (it names
/// the JSON path at fault); a trap, crash, leak or hang is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLottie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let animation = try? LottieAnimation.from(data: Data(bytes: data, count: size)) else { return 0 }
    let layer = LottieAnimationLayer(animation: animation)
    CAMediaClock.setManualTime(0)
    for progress in [0, 0.5] {
        layer.currentProgress = progress
        _ = try? CARenderer.image(of: layer, size: CGSize(width: 64, height: 64), at: 0)
    }
    return 0
}
