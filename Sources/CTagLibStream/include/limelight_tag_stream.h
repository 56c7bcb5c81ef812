// An audio file opened through TagLib for reading only. TagLib's C
// interface (taglib_file_new) opens a file for writing when it may: closing
// it then tells every inotify watcher of the folder that the file was
// written (IN_CLOSE_WRITE), and the watcher read each sound it had read
// again, a storm of events over a folder of sounds.
#ifndef LIMELIGHT_TAG_STREAM_H
#define LIMELIGHT_TAG_STREAM_H

#include <taglib/tag_c.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct LimelightTagStream LimelightTagStream;

// Opens `path` for reading only; NULL when it cannot be opened, TagLib
// knows no format for it, or the file is not one of the format it knows.
LimelightTagStream *limelight_tag_stream_open(const char *path);

// Whether TagLib knows a format by the name's extension: a file it then
// cannot open is damaged, where one it does not know is no error.
int limelight_tag_format_known(const char *path);

// The file, for TagLib's C interface (its tags and audio properties); valid
// until the stream is closed.
TagLib_File *limelight_tag_stream_file(LimelightTagStream *stream);

void limelight_tag_stream_close(LimelightTagStream *stream);

#ifdef __cplusplus
}
#endif

#endif
