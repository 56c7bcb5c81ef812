// gdk-pixbuf (Debian's libgdk-pixbuf-2.0-dev): decoding images for the
// built-in thumbnailer. The few functions used are declared here, with
// GObject and GError pointers left opaque: the package's headers need
// pkg-config flags that Swift packages may not pass (-pthread).
#include <stddef.h>

void *gdk_pixbuf_get_file_info(const char *filename, int *width, int *height);
void *gdk_pixbuf_new_from_file_at_scale(const char *filename, int width, int height,
                                        int preserve_aspect_ratio, void **error);
void *gdk_pixbuf_apply_embedded_orientation(void *src);
int gdk_pixbuf_savev(void *pixbuf, const char *filename, const char *type, char **option_keys,
                     char **option_values, void **error);
