// ImageCodecs — PNG and JPEG encoding/decoding on `Raster.Pixmap`s, over the system's zlib,
// libpng and libjpeg. Knows nothing of layers or Core Graphics.
import Raster
