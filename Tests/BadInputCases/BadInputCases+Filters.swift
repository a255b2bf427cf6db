import Compositor
import Foundation
import QuartzCore

/// Layer filters with hostile inputs: a huge or NaN blur radius, a colour matrix overflowing to
/// ±∞ (its NaN stored as 0), inputs of the wrong type, unknown filter types and values that are
/// no filters draw without a trap and in bounded time (`CAFilter`: non-finite and non-numeric
/// inputs count as unset, the radius is clamped to `CAFilter.maxRadius`, and any radius blurs at
/// about the same cost).
extension BadInputCase {
    static let filterCases: [BadInputCase] = [
        BadInputCase("filter-blur-radius-1e308", area: "numbers", expected: "drew") {
            try drawn(filtered([blur(1e308)]), size: CGSize(width: 480, height: 270))
        },
        BadInputCase("filter-blur-radius-nan", area: "numbers", expected: "drew") {
            try drawn(filtered([blur(Double.nan)]))
        },
        BadInputCase("filter-saturate-amount-1e300", area: "numbers", expected: "drew") {
            let saturate = CAFilter(type: kCAFilterColorSaturate)
            saturate.setValue(1e300, forKey: kCAFilterInputAmount)
            return try drawn(filtered([saturate]))
        },
        BadInputCase("filter-inputs-of-wrong-types", area: "numbers", expected: "drew") {
            let matrix = CAFilter(type: kCAFilterColorMatrix)
            matrix.setValue([CGFloat.nan, 1], forKey: kCAFilterInputColorMatrix)
            let l = filtered([blur("ten"), matrix, CAFilter(type: "noSuchFilter"), 42, NSNull()])
            l.backgroundFilters = [blur(-1e300)]
            l.compositingFilter = [1, 2, 3]
            return try drawn(l)
        },
    ]

    static func blur(_ radius: Any) -> CAFilter {
        let f = CAFilter(type: kCAFilterGaussianBlur)
        f.setValue(radius, forKey: kCAFilterInputRadius)
        return f
    }

    static func filtered(_ filters: [Any]) -> CALayer {
        let l = square()
        l.filters = filters
        return l
    }
}
