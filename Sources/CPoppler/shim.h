// poppler's GLib interface (Debian's libpoppler-glib-dev): PDF text and properties,
// and pages drawn with cairo for thumbnails.
#include <poppler.h>
#include <cairo.h>
