#include <systemd/sd-bus.h>
