/* cmd_accessor.h - `lego accessor` (internal to the CLI). */
#ifndef LEGO_CMD_ACCESSOR_H
#define LEGO_CMD_ACCESSOR_H

/* Takes the arguments after the command name; returns the exit status. */
int lego_cmd_accessor(int argc, char **argv);

#endif
