import CX11
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// The window's copy of the frame, in the visual's pixel format (an `XImage`), and the requests
/// that show parts of it.
///
/// Only damaged rectangles are converted (`update`); the image keeps the whole converted frame,
/// so an Expose is repainted from it (`put`) without rendering or converting anything. With
/// MIT-SHM the image lives in a shared memory segment the server reads directly: `put` is
/// `XShmPutImage` asking for a completion event, and `update` waits for that event before it
/// writes the image again (the server may still be reading it). Without it, `XPutImage` sends the
/// rectangle's pixels over the connection.
final class FramePresenter {
    private let connection: XConnection
    private let drawable: Drawable
    private let gc: GC
    private let image: UnsafeMutablePointer<XImage>
    /// The segment, when MIT-SHM is in use.
    private var segment: UnsafeMutablePointer<XShmSegmentInfo>?
    /// The image layout; nil when `XPutPixel` converts (unusual bits per pixel).
    private let format: PixelFormat?
    private let masks: (red: UInt, green: UInt, blue: UInt)
    /// The event type of `ShmCompletion`.
    private let completionType: Int32
    /// `XShmPutImage`s whose completion event has not arrived yet.
    private(set) var pendingCompletions = 0
    let width: Int, height: Int

    var usesSharedMemory: Bool { segment != nil }

    /// An image for a `width`×`height` frame drawn on `drawable` with `visual`. `allowSharedMemory`
    /// false forces the plain path (tests, measurements).
    init(connection: XConnection, drawable: Drawable, visual: XVisualInfo, width: Int, height: Int,
         allowSharedMemory: Bool = true) throws(HostError) {
        self.connection = connection
        self.drawable = drawable
        self.width = width
        self.height = height
        let dpy = connection.display
        gc = XCreateGC(dpy, drawable, 0, nil)
        XSetGraphicsExposures(dpy, gc, 0)
        masks = (visual.red_mask, visual.green_mask, visual.blue_mask)
        completionType = allowSharedMemory && XShmQueryExtension(dpy) != 0 ? XShmGetEventBase(dpy) + ShmCompletion : -1

        if completionType >= 0, let (shmImage, info) = Self.sharedImage(connection, visual, width, height) {
            image = shmImage
            segment = info
        } else {
            guard let plain = XCreateImage(dpy, visual.visual, UInt32(visual.depth), ZPixmap, 0, nil,
                                           UInt32(width), UInt32(height), 32, 0) else {
                _ = XFreeGC(dpy, gc)
                throw .windowCreationFailed("XCreateImage failed for \(width)×\(height)")
            }
            let bytes = Int(plain.pointee.bytes_per_line) * height
            guard let data = malloc(max(bytes, 4)) else {
                _ = plain.pointee.f.destroy_image(plain)
                _ = XFreeGC(dpy, gc)
                throw .windowCreationFailed("no memory for a \(width)×\(height) image")
            }
            memset(data, 0, max(bytes, 4))
            plain.pointee.data = data.assumingMemoryBound(to: CChar.self)
            image = plain
        }
        let img = image.pointee
        format = PixelFormat(redMask: masks.red, greenMask: masks.green, blueMask: masks.blue,
                             bitsPerPixel: Int(img.bits_per_pixel), bigEndian: img.byte_order == MSBFirst)
            .flatMap { $0.isConvertedDirectly ? $0 : nil }
    }

    /// A shared-memory image, or nil when the segment cannot be made or the server cannot attach
    /// it (a remote display, a server without access to this machine's segments).
    private static func sharedImage(_ connection: XConnection, _ visual: XVisualInfo, _ width: Int, _ height: Int)
        -> (UnsafeMutablePointer<XImage>, UnsafeMutablePointer<XShmSegmentInfo>)? {
        let dpy = connection.display
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(dpy, visual.visual, UInt32(visual.depth), ZPixmap, nil, info,
                                          UInt32(width), UInt32(height)) else {
            info.deallocate()
            return nil
        }
        func fail() -> (UnsafeMutablePointer<XImage>, UnsafeMutablePointer<XShmSegmentInfo>)? {
            image.pointee.data = nil
            _ = image.pointee.f.destroy_image(image)
            info.deallocate()
            return nil
        }
        let bytes = max(Int(image.pointee.bytes_per_line) * height, 4)
        let id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        guard id >= 0 else { return fail() }
        guard let address = shmat(id, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            shmctl(id, IPC_RMID, nil)
            return fail()
        }
        info.pointee.shmid = id
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        image.pointee.data = info.pointee.shmaddr
        var attached = false
        let error = connection.trappingErrors { attached = XShmAttach(dpy, info) != 0 }
        // Attached (or not), the segment can be marked for removal: it lives until both detach.
        shmctl(id, IPC_RMID, nil)
        guard attached, error == nil else {
            shmdt(address)
            return fail()
        }
        return (image, info)
    }

    deinit {
        let dpy = connection.display
        let live = !connection.isLost
        if let segment {
            if live {
                XShmDetach(dpy, segment)
                XSync(dpy, 0)
            }
            shmdt(segment.pointee.shmaddr)
            image.pointee.data = nil
            segment.deallocate()
        }
        _ = image.pointee.f.destroy_image(image)   // frees the plain image's malloc'd pixels
        if live { _ = XFreeGC(dpy, gc) }
    }

    /// Notes an event from the queue; true when it was this presenter's completion event.
    func consume(_ event: inout XEvent) -> Bool {
        guard completionType >= 0, event.type == completionType else { return false }
        pendingCompletions = max(0, pendingCompletions - 1)
        return true
    }

    /// Converts `rect` (frame pixels) of `pixmap` into the image.
    func update(_ rect: PixelRect, from pixmap: Raster.Pixmap) {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: min(width, pixmap.width), height: min(height, pixmap.height)))
        guard !r.isEmpty else { return }
        waitForCompletion()
        let img = image.pointee
        if let format {
            format.convert(r, of: pixmap, into: UnsafeMutableRawPointer(img.data), bytesPerRow: Int(img.bytes_per_line))
            return
        }
        // An unusual layout: Xlib's own per-pixel conversion (slow, correct everywhere).
        let red = PixelFormat.Channel(mask: masks.red), green = PixelFormat.Channel(mask: masks.green),
            blue = PixelFormat.Channel(mask: masks.blue)
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) {
                let w = pixmap.words[y * pixmap.width + x]
                let v = (red?.place(w & 0xff) ?? 0) | (green?.place((w >> 8) & 0xff) ?? 0) | (blue?.place((w >> 16) & 0xff) ?? 0)
                _ = image.pointee.f.put_pixel(image, Int32(x), Int32(y), UInt(v))
            }
        }
    }

    /// Shows `rect` (frame pixels) of the image at `origin` + its position in the window.
    func put(_ rect: PixelRect, originX: Int, originY: Int) {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        let dpy = connection.display
        if segment != nil {
            XShmPutImage(dpy, drawable, gc, image, Int32(r.x), Int32(r.y), Int32(r.x + originX), Int32(r.y + originY),
                         UInt32(r.width), UInt32(r.height), 1)
            pendingCompletions += 1
        } else {
            XPutImage(dpy, drawable, gc, image, Int32(r.x), Int32(r.y), Int32(r.x + originX), Int32(r.y + originY),
                      UInt32(r.width), UInt32(r.height))
        }
    }

    /// Blocks until the server has read the shared image for every put so far (other events stay
    /// queued, in order).
    private func waitForCompletion() {
        while pendingCompletions > 0 && !connection.isLost {
            var event = XEvent()
            XIfEvent(connection.display, &event, { _, event, arg in
                event?.pointee.type == Int32(truncatingIfNeeded: Int(bitPattern: arg)) ? 1 : 0
            }, XPointer(bitPattern: Int(completionType)))
            pendingCompletions -= 1
        }
    }
}
