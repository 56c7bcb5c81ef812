// libarchive (Debian's libarchive-dev): the members of archives, read without extracting.
#include <archive.h>
#include <archive_entry.h>
