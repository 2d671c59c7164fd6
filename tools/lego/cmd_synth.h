/* cmd_synth.h - `lego synth` (internal to the CLI). */
#ifndef LEGO_CMD_SYNTH_H
#define LEGO_CMD_SYNTH_H

/* Takes the arguments after the command name; returns the exit status
 * (0 ok, 1 error in the input, 2 usage error). */
int lego_cmd_synth(int argc, char **argv);

#endif
