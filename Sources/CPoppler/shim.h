// poppler's GLib interface (Debian's libpoppler-glib-dev): PDF text and properties.
#include <poppler.h>
