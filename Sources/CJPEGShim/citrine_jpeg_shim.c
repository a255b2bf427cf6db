#include "citrine_jpeg_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

struct citrine_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errors;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int premature_end;
    int warnings_are_errors;
};

static citrine_jpeg_decoder *decoder_of(j_common_ptr cinfo) {
    return (citrine_jpeg_decoder *)((char *)cinfo - offsetof(citrine_jpeg_decoder, cinfo));
}

/* Fatal error: keep the text, jump back to the shim function that is running. */
static void on_error_exit(j_common_ptr cinfo) {
    citrine_jpeg_decoder *decoder = decoder_of(cinfo);
    (*cinfo->err->format_message)(cinfo, decoder->message);
    longjmp(decoder->jump, 1);
}

/* Warnings and traces: never printed. "Premature end of data" ends the decode at once, strict or
   lenient, remembered as such (the file is truncated: an error either way, so the rows libjpeg
   would go on to fill with grey are never decoded, and a short file claiming a large image costs
   time for the data it holds, not for the size it claims). Any other warning (corrupt
   data libjpeg would "recover" from) is an error when the decoder is strict, as libjpeg's
   documentation suggests: emit_message calls error_exit. */
static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        decoder_of(cinfo)->premature_end = 1;
        (*cinfo->err->error_exit)(cinfo);
    } else if (decoder_of(cinfo)->warnings_are_errors) {
        (*cinfo->err->error_exit)(cinfo);
    }
}

void citrine_jpeg_set_warnings_are_errors(citrine_jpeg_decoder *decoder, int on) {
    decoder->warnings_are_errors = on;
}

static void copy_message(const citrine_jpeg_decoder *decoder, char *message) {
    snprintf(message, CITRINE_JPEG_MESSAGE_CAPACITY, "%s", decoder->message);
}

citrine_jpeg_decoder *citrine_jpeg_create(void) {
    citrine_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->cinfo.err = jpeg_std_error(&decoder->errors);
    decoder->errors.error_exit = on_error_exit;
    decoder->errors.emit_message = on_emit_message;
    if (setjmp(decoder->jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    return decoder;
}

void citrine_jpeg_destroy(citrine_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->cinfo); /* never calls error_exit */
    free(decoder);
}

int citrine_jpeg_read_header(citrine_jpeg_decoder *decoder, const unsigned char *data,
                             unsigned long size, citrine_jpeg_info *info, char *message) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (setjmp(decoder->jump)) {
        copy_message(decoder, message);
        return -1;
    }
    jpeg_mem_src(cinfo, data, size);
    jpeg_read_header(cinfo, TRUE);
    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    info->width = (int)cinfo->image_width;
    info->height = (int)cinfo->image_height;
    info->components = cinfo->num_components;
    info->is_cmyk = cmyk;
    info->cmyk_inverted = cmyk && cinfo->saw_Adobe_marker;
    info->progressive = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
    return 0;
}

int citrine_jpeg_read_pixels(citrine_jpeg_decoder *decoder, unsigned char *pixels,
                             size_t bytes_per_row, char *message) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (setjmp(decoder->jump)) {
        copy_message(decoder, message);
        return -1;
    }
    jpeg_start_decompress(cinfo);
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = pixels + (size_t)cinfo->output_scanline * bytes_per_row;
        jpeg_read_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_decompress(cinfo);
    return 0;
}

int citrine_jpeg_hit_premature_end(const citrine_jpeg_decoder *decoder) {
    return decoder->premature_end;
}
