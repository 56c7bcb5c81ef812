// poppler's GLib interface (PDF text, properties and pages), cairo (pages
// drawn) and gdk-pixbuf (images decoded), loaded when the import helper
// first reads a PDF or draws a thumbnail (dlopen): the watcher runs its own
// program as its helpers, and these libraries and the hundred they bring
// (GLib, X11, NSS, fonts) cost every process that loads them megabytes of
// its own, the watcher's too, idle for days. The declarations are the
// libraries' own (stable interfaces), their objects left opaque.
#ifndef LIMELIGHT_CGRAPHICS_H
#define LIMELIGHT_CGRAPHICS_H

#include <stdint.h>
#include <time.h>

/// GLib's GError: what went wrong, as the library says it.
typedef struct {
  uint32_t domain;
  int code;
  char *message;
} LimelightGError;

/// poppler's PopplerRectangle: an area of a page, in points.
typedef struct {
  double x1, y1, x2, y2;
} LimelightRectangle;

enum { LIMELIGHT_CAIRO_FORMAT_ARGB32 = 0, LIMELIGHT_CAIRO_STATUS_SUCCESS = 0 };

/// Loads the libraries; NULL when loaded, else why they could not be.
const char *limelight_graphics_load(void);

// GLib and GObject.
void limelight_g_free(void *memory);
void limelight_g_object_unref(void *object);
void limelight_g_error_free(LimelightGError *error);

// poppler-glib: a document, its properties, its pages.
void *limelight_poppler_document_new_from_file(
    const char *uri, const char *password, LimelightGError **error);
char *limelight_poppler_document_get_title(void *document);
char *limelight_poppler_document_get_author(void *document);
char *limelight_poppler_document_get_subject(void *document);
char *limelight_poppler_document_get_keywords(void *document);
char *limelight_poppler_document_get_creator(void *document);
time_t limelight_poppler_document_get_creation_date(void *document);
int limelight_poppler_document_get_n_pages(void *document);
void *limelight_poppler_document_get_page(void *document, int index);
char *limelight_poppler_page_get_text(void *page);
char *limelight_poppler_page_get_text_for_area(void *page, LimelightRectangle *area);
void limelight_poppler_page_get_size(void *page, double *width, double *height);
void limelight_poppler_page_render(void *page, void *cairo);

// cairo: an image surface a page is drawn on, written as PNG.
void *limelight_cairo_image_surface_create(int format, int width, int height);
void limelight_cairo_surface_destroy(void *surface);
int limelight_cairo_surface_write_to_png(void *surface, const char *filename);
void *limelight_cairo_create(void *surface);
void limelight_cairo_destroy(void *cairo);
void limelight_cairo_set_source_rgb(void *cairo, double red, double green, double blue);
void limelight_cairo_paint(void *cairo);
void limelight_cairo_scale(void *cairo, double x, double y);

// gdk-pixbuf: images decoded at a size, turned upright, saved.
void *limelight_gdk_pixbuf_get_file_info(const char *filename, int *width, int *height);
void *limelight_gdk_pixbuf_new_from_file_at_scale(
    const char *filename, int width, int height, int preserve_aspect_ratio,
    LimelightGError **error);
void *limelight_gdk_pixbuf_apply_embedded_orientation(void *source);
int limelight_gdk_pixbuf_savev(
    void *pixbuf, const char *filename, const char *type, char **option_keys,
    char **option_values, LimelightGError **error);

#endif
