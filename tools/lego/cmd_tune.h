/* cmd_tune.h - `lego tune` (internal to the CLI). */
#ifndef LEGO_CMD_TUNE_H
#define LEGO_CMD_TUNE_H

/* Takes the arguments after the command name; returns the exit status
 * (0 ok, 1 error in the input or nothing measurable, 2 usage error). */
int lego_cmd_tune(int argc, char **argv);

#endif
