#include "limelight_tag_stream.h"

#include <new>
#include <taglib/fileref.h>
#include <taglib/tfilestream.h>

// The stream outlives the file TagLib makes of it (a file made from a
// stream does not own it): members are destroyed in reverse order.
struct LimelightTagStream {
  TagLib::FileStream stream;
  TagLib::FileRef file;
  explicit LimelightTagStream(const char *path) : stream(path, true), file(&stream) {}
};

extern "C" LimelightTagStream *limelight_tag_stream_open(const char *path) {
  LimelightTagStream *opened = new (std::nothrow) LimelightTagStream(path);
  if (!opened) return nullptr;
  if (!opened->stream.isOpen() || opened->file.isNull()) {
    delete opened;
    return nullptr;
  }
  return opened;
}

extern "C" int limelight_tag_format_known(const char *path) {
  TagLib::String name(path, TagLib::String::UTF8);
  const int dot = name.rfind(".");
  if (dot < 0) return 0;
  const TagLib::String extension = name.substr(dot + 1).upper();
  const TagLib::StringList known = TagLib::FileRef::defaultFileExtensions();
  for (const auto &each : known) {
    if (each.upper() == extension) return 1;
  }
  return 0;
}

extern "C" TagLib_File *limelight_tag_stream_file(LimelightTagStream *stream) {
  return reinterpret_cast<TagLib_File *>(stream->file.file());
}

extern "C" void limelight_tag_stream_close(LimelightTagStream *stream) { delete stream; }
