import Raster
import Testing
import UIKit

/// Apple's UIImageView reference, as quoted by others ("UIImageView will not call drawRect: a
/// subclass", angelolloqui.com, 2012): the image is the layer's contents. So an image view's layer draws nothing
/// of its own from the start (`_drawsContent(of:)` false), and the compositor can keep it as a
/// bitmap drawn from its properties; a plain view's layer counts as drawing until its first
/// display finds that it draws nothing.
struct UIImageViewDrawingTests {
    @Test func anImageViewsLayerDrawsNothingOfItsOwn() throws {
        let pixels = try Pixmap(width: 4, height: 2)
        for view in [UIImageView(frame: CGRect(x: 0, y: 0, width: 20, height: 10)),
                     UIImageView(image: UIImage(cgImage: CGImage(pixmap: pixels), scale: 2, orientation: .up))] {
            #expect(view.layer.delegate?._drawsContent(of: view.layer) == false)
        }
        let plain = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
        #expect(plain.layer.delegate?._drawsContent(of: plain.layer) == true)
    }
}
