import QuartzCore

/// What the demos share in the gallery.
public enum Gallery {
    /// The gallery's paper colour, behind every demo.
    public static let background = CGColor(red: 0.97, green: 0.96, blue: 0.93, alpha: 1)
}
