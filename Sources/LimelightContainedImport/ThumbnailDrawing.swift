import CGraphics
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
    if let failure = limelight_graphics_load() {
      throw Failure(description: String(cString: failure))
    }
    if contentType == "application/pdf" {
      try drawPDF(input: input, output: output, size: size)
    } else {
      try drawImage(input: input, output: output, size: size)
    }
  }

  static func message(_ error: UnsafeMutablePointer<LimelightGError>?) -> String {
    guard let error else { return "cannot be read" }
    defer { limelight_g_error_free(error) }
    return String(cString: error.pointee.message)
  }

  static func drawImage(input: RawPath, output: RawPath, size: Int) throws(Failure) {
    var width: Int32 = 0
    var height: Int32 = 0
    guard limelight_gdk_pixbuf_get_file_info(input.string, &width, &height) != nil, width > 0,
      height > 0
    else { throw Failure(description: "not an image gdk-pixbuf can read") }
    // Decoding at the target size keeps the memory of a huge photo small.
    let target = Int32(min(size, Int(max(width, height))))
    var error: UnsafeMutablePointer<LimelightGError>?
    guard
      let loaded = limelight_gdk_pixbuf_new_from_file_at_scale(
        input.string, target, target, 1, &error)
    else { throw Failure(description: message(error)) }
    defer { limelight_g_object_unref(loaded) }
    let upright = limelight_gdk_pixbuf_apply_embedded_orientation(loaded)
    defer { if let upright { limelight_g_object_unref(upright) } }
    let picture = upright ?? loaded
    var keys: [UnsafeMutablePointer<CChar>?] = [nil]
    var values: [UnsafeMutablePointer<CChar>?] = [nil]
    guard limelight_gdk_pixbuf_savev(picture, output.string, "png", &keys, &values, &error) != 0
    else {
      throw Failure(description: message(error))
    }
  }

  static func drawPDF(input: RawPath, output: RawPath, size: Int) throws(Failure) {
    var error: UnsafeMutablePointer<LimelightGError>?
    guard
      let document = limelight_poppler_document_new_from_file(FileURI.uri(for: input), nil, &error)
    else { throw Failure(description: message(error)) }
    defer { limelight_g_object_unref(document) }
    guard let page = limelight_poppler_document_get_page(document, 0) else {
      throw Failure(description: "the document has no pages")
    }
    defer { limelight_g_object_unref(page) }
    var pageWidth = 0.0
    var pageHeight = 0.0
    limelight_poppler_page_get_size(page, &pageWidth, &pageHeight)
    guard pageWidth >= 1, pageHeight >= 1, pageWidth < 1e6, pageHeight < 1e6 else {
      throw Failure(description: "the first page has no size")
    }
    let scale = Double(size) / max(pageWidth, pageHeight)
    let width = Int32(max(1, (pageWidth * scale).rounded()))
    let height = Int32(max(1, (pageHeight * scale).rounded()))
    guard
      let surface = limelight_cairo_image_surface_create(
        Int32(LIMELIGHT_CAIRO_FORMAT_ARGB32), width, height)
    else {
      throw Failure(description: "no memory to draw the page")
    }
    defer { limelight_cairo_surface_destroy(surface) }
    guard let context = limelight_cairo_create(surface) else {
      throw Failure(description: "no memory to draw the page")
    }
    // Paper is white: a page drawn on transparency shows the list's background.
    limelight_cairo_set_source_rgb(context, 1, 1, 1)
    limelight_cairo_paint(context)
    limelight_cairo_scale(context, scale, scale)
    limelight_poppler_page_render(page, context)
    limelight_cairo_destroy(context)
    guard
      limelight_cairo_surface_write_to_png(surface, output.string) == LIMELIGHT_CAIRO_STATUS_SUCCESS
    else {
      throw Failure(description: "cannot write \(output.string)")
    }
  }
}
