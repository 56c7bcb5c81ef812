import CGraphics
import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform

/// PDF through poppler: text, title, author, subject, keywords, page count,
/// creation date, and the program that made it.
public struct PDFImporter: ContentImporter {
  public let contentTypes = HelperFormats.pdf

  public init() {}

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let uri = FileURI.uri(for: request.path)
    if let failure = limelight_graphics_load() {
      throw ImportFailure.program("poppler", String(cString: failure))
    }
    var error: UnsafeMutablePointer<LimelightGError>?
    guard let document = limelight_poppler_document_new_from_file(uri, nil, &error) else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unreadable"
      if let error { limelight_g_error_free(error) }
      // poppler's "Document is encrypted": a password is needed, nothing is wrong.
      if message.localizedCaseInsensitiveContains("encrypted") {
        throw ImportFailure.locked("the document is encrypted")
      }
      throw ImportFailure.malformed(message)
    }
    defer { limelight_g_object_unref(document) }
    func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
      guard let text else { return nil }
      defer { limelight_g_free(text) }
      return DocumentProperties.meaningful(String(cString: text))
    }
    attributes.title = take(limelight_poppler_document_get_title(document))
    if let author = take(limelight_poppler_document_get_author(document)) {
      attributes.authors = [author]
    }
    if let subject = take(limelight_poppler_document_get_subject(document)) {
      attributes.extra["subject"] = .string(subject)
      attributes.contentDescription = AttributeSet.summary(of: subject)
    }
    if let keywords = take(limelight_poppler_document_get_keywords(document)) {
      attributes.keywords += DocumentProperties.keywords(in: keywords)
    }
    if let creator = take(limelight_poppler_document_get_creator(document)) {
      attributes.extra["creator"] = .string(creator)
    }
    let created = limelight_poppler_document_get_creation_date(document)
    if created > 0 {
      attributes.extra["contentCreationDate"] = .date(
        Date(timeIntervalSince1970: Double(created)))
    }
    let pages = Int(limelight_poppler_document_get_n_pages(document))
    attributes.extra["pageCount"] = .number(Double(pages))
    var text = ""
    let budget = request.limits.maxTextBytes
    for index in 0..<min(pages, request.limits.maxMembers) where text.utf8.count < budget {
      guard let page = limelight_poppler_document_get_page(document, Int32(index)) else { continue }
      // An area well past the page: poppler drops the lines under one that
      // runs past the page's edge when asked for the page alone (reportlab's
      // overlong lines, 14 points apart), and keeps them this way.
      var width = 0.0
      var height = 0.0
      limelight_poppler_page_get_size(page, &width, &height)
      var area = LimelightRectangle(
        x1: -4 * max(width, 1), y1: -4 * max(height, 1), x2: 5 * max(width, 1),
        y2: 5 * max(height, 1))
      if let pageText = take(limelight_poppler_page_get_text_for_area(page, &area)) {
        text += pageText + "\n"
      }
      limelight_g_object_unref(page)
    }
    if !text.isEmpty {
      attributes.textContent = String(decoding: text.utf8.prefix(budget), as: UTF8.self)
      if attributes.contentDescription == nil {
        attributes.contentDescription = AttributeSet.summary(of: text)
      }
    }
  }
}
