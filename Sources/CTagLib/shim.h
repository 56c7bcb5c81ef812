// TagLib's C interface (Debian's libtagc0-dev): audio tags and properties.
#include <taglib/tag_c.h>
