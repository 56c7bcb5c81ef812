#include "CGraphics.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// Each call made, with the library that has it: its name, result,
// parameters and arguments.
#define LIMELIGHT_GRAPHICS_CALLS(X)                                                          \
  X(glib, void, g_free, (void *a), (a))                                                     \
  X(gobject, void, g_object_unref, (void *a), (a))                                          \
  X(glib, void, g_error_free, (LimelightGError * a), (a))                                   \
  X(poppler, void *, poppler_document_new_from_file,                                        \
    (const char *a, const char *b, LimelightGError **c), (a, b, c))                         \
  X(poppler, char *, poppler_document_get_title, (void *a), (a))                            \
  X(poppler, char *, poppler_document_get_author, (void *a), (a))                           \
  X(poppler, char *, poppler_document_get_subject, (void *a), (a))                          \
  X(poppler, char *, poppler_document_get_keywords, (void *a), (a))                         \
  X(poppler, char *, poppler_document_get_creator, (void *a), (a))                          \
  X(poppler, time_t, poppler_document_get_creation_date, (void *a), (a))                    \
  X(poppler, int, poppler_document_get_n_pages, (void *a), (a))                             \
  X(poppler, void *, poppler_document_get_page, (void *a, int b), (a, b))                   \
  X(poppler, char *, poppler_page_get_text, (void *a), (a))                                 \
  X(poppler, char *, poppler_page_get_text_for_area, (void *a, LimelightRectangle * b), (a, b)) \
  X(poppler, void, poppler_page_get_size, (void *a, double *b, double *c), (a, b, c))       \
  X(poppler, void, poppler_page_render, (void *a, void *b), (a, b))                         \
  X(cairo, void *, cairo_image_surface_create, (int a, int b, int c), (a, b, c))            \
  X(cairo, void, cairo_surface_destroy, (void *a), (a))                                     \
  X(cairo, int, cairo_surface_write_to_png, (void *a, const char *b), (a, b))               \
  X(cairo, void *, cairo_create, (void *a), (a))                                            \
  X(cairo, void, cairo_destroy, (void *a), (a))                                             \
  X(cairo, void, cairo_set_source_rgb, (void *a, double b, double c, double d), (a, b, c, d)) \
  X(cairo, void, cairo_paint, (void *a), (a))                                               \
  X(cairo, void, cairo_scale, (void *a, double b, double c), (a, b, c))                     \
  X(pixbuf, void *, gdk_pixbuf_get_file_info, (const char *a, int *b, int *c), (a, b, c))   \
  X(pixbuf, void *, gdk_pixbuf_new_from_file_at_scale,                                      \
    (const char *a, int b, int c, int d, LimelightGError **e), (a, b, c, d, e))             \
  X(pixbuf, void *, gdk_pixbuf_apply_embedded_orientation, (void *a), (a))                  \
  X(pixbuf, int, gdk_pixbuf_savev,                                                          \
    (void *a, const char *b, const char *c, char **d, char **e, LimelightGError **f),       \
    (a, b, c, d, e, f))

#define LIMELIGHT_POINTER(library, result, name, parameters, arguments) \
  static result(*pointer_##name) parameters;
LIMELIGHT_GRAPHICS_CALLS(LIMELIGHT_POINTER)

// The libraries by the name the calls above give them (Debian's sonames).
static const char *const soname_glib = "libglib-2.0.so.0";
static const char *const soname_gobject = "libgobject-2.0.so.0";
static const char *const soname_poppler = "libpoppler-glib.so.8";
static const char *const soname_cairo = "libcairo.so.2";
static const char *const soname_pixbuf = "libgdk_pixbuf-2.0.so.0";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = "the graphics libraries were not loaded";

static void load(void) {
  const char *const sonames[] = {soname_glib, soname_gobject, soname_poppler, soname_cairo,
                                 soname_pixbuf};
  void *handles[5];
  for (int i = 0; i < 5; i++) {
    handles[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (handles[i] == NULL) {
      failure = "a library for PDF and images cannot be loaded (install libpoppler-glib8, "
                "libcairo2 and libgdk-pixbuf-2.0-0)";
      return;
    }
  }
  void *glib = handles[0], *gobject = handles[1], *poppler = handles[2], *cairo = handles[3],
       *pixbuf = handles[4];
#define LIMELIGHT_RESOLVE(library, result, name, parameters, arguments) \
  *(void **)(&pointer_##name) = dlsym(library, #name);                  \
  if (pointer_##name == NULL) {                                         \
    failure = "a library for PDF and images lacks " #name;              \
    return;                                                             \
  }
  LIMELIGHT_GRAPHICS_CALLS(LIMELIGHT_RESOLVE)
  failure = NULL;
}

const char *limelight_graphics_load(void) {
  pthread_once(&once, load);
  return failure;
}

// Called only after limelight_graphics_load returned NULL.
#define LIMELIGHT_FORWARD(library, result, name, parameters, arguments) \
  result limelight_##name parameters { return pointer_##name arguments; }
LIMELIGHT_GRAPHICS_CALLS(LIMELIGHT_FORWARD)
