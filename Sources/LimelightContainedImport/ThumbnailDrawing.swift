import CPixbuf
import CPoppler
import LimelightModel
import LimelightPlatform

/// The built-in thumbnailer, for what no thumbnailer of the system draws:
/// images that gdk-pixbuf decodes (scaled to fit, turned upright by their
/// EXIF orientation, never enlarged) and the first page of a PDF, drawn by
/// poppler with cairo. It writes a PNG; the watcher then tags it as the
/// Thumbnail Managing Standard asks and moves it into the cache. It runs in
/// the helper, within a time and memory limit, like any thumbnailer.
public enum ThumbnailDrawing {
  /// Why a thumbnail could not be drawn.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Draws `input` into a PNG at `output`, at most `size` pixels on its longer side.
  public static func draw(input: RawPath, output: RawPath, size: Int, contentType: String)
    throws(Failure)
  {
    guard size > 0 && size <= 4096 else { throw Failure(description: "size out of range") }
    if contentType == "application/pdf" {
      try drawPDF(input: input, output: output, size: size)
    } else {
      try drawImage(input: input, output: output, size: size)
    }
  }

  static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "cannot be read" }
    defer { g_error_free(error) }
    return String(cString: error.pointee.message)
  }

  /// The message of a GError that gdk-pixbuf, declared opaquely, set.
  static func message(_ error: UnsafeMutableRawPointer?) -> String {
    message(error?.assumingMemoryBound(to: GError.self))
  }

  static func drawImage(input: RawPath, output: RawPath, size: Int) throws(Failure) {
    var width: Int32 = 0
    var height: Int32 = 0
    guard gdk_pixbuf_get_file_info(input.string, &width, &height) != nil, width > 0, height > 0
    else { throw Failure(description: "not an image gdk-pixbuf can read") }
    // Decoding at the target size keeps the memory of a huge photo small.
    let target = Int32(min(size, Int(max(width, height))))
    var error: UnsafeMutableRawPointer?
    guard let loaded = gdk_pixbuf_new_from_file_at_scale(input.string, target, target, 1, &error)
    else { throw Failure(description: message(error)) }
    defer { g_object_unref(loaded) }
    let upright = gdk_pixbuf_apply_embedded_orientation(loaded)
    defer { if let upright { g_object_unref(upright) } }
    let picture = upright ?? loaded
    var keys: [UnsafeMutablePointer<CChar>?] = [nil]
    var values: [UnsafeMutablePointer<CChar>?] = [nil]
    guard gdk_pixbuf_savev(picture, output.string, "png", &keys, &values, &error) != 0 else {
      throw Failure(description: message(error))
    }
  }

  static func drawPDF(input: RawPath, output: RawPath, size: Int) throws(Failure) {
    var error: UnsafeMutablePointer<GError>?
    guard let document = poppler_document_new_from_file(FileURI.uri(for: input), nil, &error)
    else { throw Failure(description: message(error)) }
    defer { g_object_unref(UnsafeMutableRawPointer(document)) }
    guard let page = poppler_document_get_page(document, 0) else {
      throw Failure(description: "the document has no pages")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(page)) }
    var pageWidth = 0.0
    var pageHeight = 0.0
    poppler_page_get_size(page, &pageWidth, &pageHeight)
    guard pageWidth >= 1, pageHeight >= 1, pageWidth < 1e6, pageHeight < 1e6 else {
      throw Failure(description: "the first page has no size")
    }
    let scale = Double(size) / max(pageWidth, pageHeight)
    let width = Int32(max(1, (pageWidth * scale).rounded()))
    let height = Int32(max(1, (pageHeight * scale).rounded()))
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else {
      throw Failure(description: "no memory to draw the page")
    }
    defer { cairo_surface_destroy(surface) }
    guard let context = cairo_create(surface) else {
      throw Failure(description: "no memory to draw the page")
    }
    // Paper is white: a page drawn on transparency shows the list's background.
    cairo_set_source_rgb(context, 1, 1, 1)
    cairo_paint(context)
    cairo_scale(context, scale, scale)
    poppler_page_render(page, context)
    cairo_destroy(context)
    guard cairo_surface_write_to_png(surface, output.string) == CAIRO_STATUS_SUCCESS else {
      throw Failure(description: "cannot write \(output.string)")
    }
  }
}
