/// The rarely used rendering options of a layer, summarized in one word that the renderer reads
/// per layer per frame (reading each of these properties would cost a dozen loads for every
/// layer of every frame, for options almost no layer sets).
extension CALayer {
    /// Citrine: which rendering options of a layer differ from what the renderer does anyway.
    /// Empty for a layer that sets none of them (the renderer's fast path).
    package struct _RenderingOptions: OptionSet, Hashable, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `cornerCurve == .continuous`.
        package static let continuousCorners = _RenderingOptions(rawValue: 1 << 0)
        /// Some edge is drawn aliased: `allowsEdgeAntialiasing` is false, or
        /// `edgeAntialiasingMask` leaves an edge out.
        package static let aliasedEdges = _RenderingOptions(rawValue: 1 << 1)
        /// `allowsGroupOpacity == false`.
        package static let ungroupedOpacity = _RenderingOptions(rawValue: 1 << 2)
        /// `isGeometryFlipped`.
        package static let geometryFlipped = _RenderingOptions(rawValue: 1 << 3)
        /// `shouldRasterize`.
        package static let rasterized = _RenderingOptions(rawValue: 1 << 4)
        /// `contentsFormat == .gray8Uint`.
        package static let grayContents = _RenderingOptions(rawValue: 1 << 5)

        /// Whether no option of `other` is set: one AND. (SetAlgebra's generic
        /// `isDisjoint(with:)`, called from another module, reaches this conformance through
        /// witness tables: about 2 000 instructions a call with an array-literal argument,
        /// measured by callgrind in the renderer's per-layer checks.) Callers build their sets
        /// from raw values for the same reason.
        package func isDisjoint(with other: _RenderingOptions) -> Bool { rawValue & other.rawValue == 0 }
    }

    /// Citrine: the layer's rendering options that differ from the defaults (see
    /// `_RenderingOptions`); one inline load.
    package var _renderingOptions: _RenderingOptions { _state.renderingOptions }

    /// The edges `edgeAntialiasingMask` selects when `allowsEdgeAntialiasing` is on, none when it
    /// is off (Apple: "When true, the layer is allowed to antialias its edges, as requested by
    /// the value of the edgeAntialiasingMask property").
    package var _antialiasedEdges: CAEdgeAntialiasingMask { allowsEdgeAntialiasing ? edgeAntialiasingMask : [] }

    /// Recomputes `_renderingOptions` from the properties (their setters call it).
    func updateRenderingOptions() {
        var o: _RenderingOptions = []
        let s = state
        if s.cornerCurve == .continuous { o.insert(.continuousCorners) }
        if !s.allowsEdgeAntialiasing || !s.edgeAntialiasingMask.isSuperset(of: CAEdgeAntialiasingMask.allEdges) {
            o.insert(.aliasedEdges)
        }
        if !s.allowsGroupOpacity { o.insert(.ungroupedOpacity) }
        if s.isGeometryFlipped { o.insert(.geometryFlipped) }
        if s.shouldRasterize { o.insert(.rasterized) }
        if s.contentsFormat == .gray8Uint { o.insert(.grayContents) }
        if o != s.renderingOptions { state.renderingOptions = o }
    }

    /// Whether the layer's content is implicitly flipped when rendered (Apple: "This method
    /// provides information about whether the layer's contents are being flipped during drawing
    /// … If the layer needs to flip its content, it returns true from this method and applies a
    /// y-flip transform to the graphics context before passing it to the layer's draw(in:)
    /// method"). True when an odd number of the layer's ancestors have `isGeometryFlipped` set:
    /// the layer's space is then upside down on screen, and the flipped context makes what
    /// `draw(in:)` draws come out upright. The layer's own `isGeometryFlipped` flips its
    /// sublayers, not its content.
    public func contentsAreFlipped() -> Bool {
        var flipped = false
        var ancestor = superlayer
        while let a = ancestor {
            if a.isGeometryFlipped { flipped.toggle() }
            ancestor = a.superlayer
        }
        return flipped
    }
}

extension CAEdgeAntialiasingMask {
    /// The four edges (the default mask).
    static let allEdges: CAEdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
}

extension CALayer {
    /// Citrine, for renderers that keep pictures of a subtree (`shouldRasterize`): a number that
    /// changes with every change of this model layer's properties.
    package var _modelVersion: Int { modelVersion }
}

/// The rendering-option properties (their setters keep `_renderingOptions` current).
extension CALayer {
    /// Whether the sublayers' geometry is flipped vertically (y measured from the bounds' other
    /// side). Default false (Apple). The layer's own content is not flipped; see
    /// `contentsAreFlipped()`.
    public var isGeometryFlipped: Bool {
        get { state.isGeometryFlipped }
        set { let old = state.isGeometryFlipped; state.isGeometryFlipped = newValue; updateRenderingOptions(); changed("geometryFlipped", old) }
    }
    /// Whether an opacity below 1 composites the layer and its sublayers as one group. Default
    /// true (Apple, for apps linked against iOS 7 or later); false applies it to each part
    /// (`LayerRenderer+GroupOpacity`).
    public var allowsGroupOpacity: Bool {
        get { state.allowsGroupOpacity }
        set { let old = state.allowsGroupOpacity; state.allowsGroupOpacity = newValue; updateRenderingOptions(); changed("allowsGroupOpacity", old) }
    }
    /// Whether the layer's edges are antialiased, as `edgeAntialiasingMask` selects. Default
    /// **true** in Citrine (iOS: false unless the Info.plist sets UIViewEdgeAntialiasing; see
    /// `LayerRenderer+EdgeAntialiasing` and the README).
    public var allowsEdgeAntialiasing: Bool {
        get { state.allowsEdgeAntialiasing }
        set { let old = state.allowsEdgeAntialiasing; state.allowsEdgeAntialiasing = newValue; updateRenderingOptions(); changed("allowsEdgeAntialiasing", old) }
    }
    /// Whether the layer and its subtree are drawn into a bitmap (at `rasterizationScale` pixels
    /// per point) that is composited and kept while the subtree does not change. Default false.
    public var shouldRasterize: Bool {
        get { state.shouldRasterize }
        set { let old = state.shouldRasterize; state.shouldRasterize = newValue; updateRenderingOptions(); changed("shouldRasterize", old) }
    }
    /// Pixels per layer point of a rasterized layer's bitmap. Default 1 (Apple).
    public var rasterizationScale: CGFloat {
        get { state.rasterizationScale }
        set { let old = state.rasterizationScale; state.rasterizationScale = newValue; changed("rasterizationScale", old) }
    }
    /// Curve of rounded corners: `.circular` (default, Apple) or `.continuous` (iOS 7's rounded
    /// rectangle, `LayerGeometry+CornerCurve`).
    public var cornerCurve: CALayerCornerCurve {
        get { state.cornerCurve }
        set { let old = state.cornerCurve; state.cornerCurve = newValue; updateRenderingOptions(); changed("cornerCurve", old) }
    }
    /// Edges antialiased when `allowsEdgeAntialiasing` is on. Default all four (Apple).
    public var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { state.edgeAntialiasingMask }
        set { let old = state.edgeAntialiasingMask; state.edgeAntialiasingMask = newValue; updateRenderingOptions(); changed("edgeAntialiasingMask", old) }
    }
    /// Filter when contents are drawn smaller. Default `.linear` (Apple).
    public var minificationFilter: CALayerContentsFilter {
        get { state.minificationFilter }
        set { let old = state.minificationFilter; state.minificationFilter = newValue; changed("minificationFilter", old) }
    }
    /// Filter when contents are drawn larger. Default `.linear` (Apple).
    public var magnificationFilter: CALayerContentsFilter {
        get { state.magnificationFilter }
        set { let old = state.magnificationFilter; state.magnificationFilter = newValue; changed("magnificationFilter", old) }
    }
    /// Level-of-detail bias for `.trilinear` minification: added to log₂(texels per pixel)
    /// before the mipmap level is chosen. Default 0 (Apple).
    public var minificationFilterBias: Float {
        get { state.minificationFilterBias }
        set { let old = state.minificationFilterBias; state.minificationFilterBias = newValue; changed("minificationFilterBias", old) }
    }
    /// Pixel format of the `draw(in:)` backing store. Default `.RGBA8Uint` (Apple); `.gray8Uint`
    /// makes the drawing grey, `.RGBA16Float` is stored as 8 bits per channel.
    public var contentsFormat: CALayerContentsFormat {
        get { state.contentsFormat }
        set { let old = state.contentsFormat; state.contentsFormat = newValue; updateRenderingOptions(); changed("contentsFormat", old) }
    }
}
