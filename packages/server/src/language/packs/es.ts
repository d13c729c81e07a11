import type { LanguagePack } from "../language-pack.js";

export const es: LanguagePack = {
  code: "es",
  textSearchConfig: "spanish",
  stopWords: [],
  minContentWordLength: 4,
  smallTalk: {
    phrases: {
      greeting: ["hola", "buenos días", "buenas tardes", "buenas noches", "buenas"],
      thanks: ["gracias", "muchas gracias", "mil gracias"],
      goodbye: ["adiós", "adios", "hasta luego", "hasta pronto", "chao"],
      acknowledgement: ["vale", "ok", "sí", "si", "no", "perfecto", "genial", "entendido", "no gracias"],
    },
    replies: {
      greeting: "¡Hola! ¿En qué puedo ayudarle?",
      thanks: "¡De nada! ¿Puedo ayudarle en algo más?",
      goodbye: "¡Adiós, y gracias por su visita!",
      acknowledgement: "¿Puedo ayudarle en algo más?",
    },
    addressees: [],
  },
  personRequest: {
    articles: ["un", "uno", "una", "alguien"],
    adjectives: [],
    nouns: ["humano", "persona", "asesor(?:a)?", "operador(?:a)?"],
    // "hablar con una persona" (and "com", as a Portuguese speaker may write it)
    patterns: (person) => [new RegExp(`\\bhablar\\s+(?:con|com)\\s+${person}\\b`, "iu")],
  },
  yes: ["sí", "si", "sí por favor", "si por favor", "claro", "vale"],
  unsureReplies: {
    nothing_found: "No estoy seguro de eso: no lo he encontrado en este sitio. ¿Quiere que le ponga en contacto con una persona?",
    doubtful_match:
      "No estoy seguro de que responda a su pregunta. ¿Quiere que le ponga en contacto con una persona?",
  },
  pageReplies: {
    quoting: (page) => `Según nuestra página «${page}»:`,
    mayHelp: (pages) => (pages.length === 1 ? `Esta página puede ayudarle: ${pages.join("")}` : `Estas páginas pueden ayudarle: ${pages.join("; ")}`),
  },
  backReference: /^(?:esto|eso|esta|este|estos|estas|ello|pero|sin embargo|entonces|además|en ese caso)\b/iu,
  continuation: /^\s*(?:y|pero)\b/iu,
  pointingBack: null,
  detection: {
    functionWords: ["el", "la", "los", "las", "es", "usted", "su", "yo", "mi", "qué", "que", "cómo", "como", "puedo", "para", "de", "del", "y", "un", "una", "con", "no", "cuánto", "cuando", "dónde", "por", "se", "hay", "en", "lo"],
    helpDeskWords: ["horario", "apertura", "envío", "envi", "entreg", "reembolso", "devol", "garantía", "pedido", "precio", "pago", "cancel", "cuenta", "contraseña", "favor", "tienda", "gratis", "gracias", "hola", "domingo", "hay", "puedo", "tienen"],
    spelling: /(?:ción$|ñ|^¿|dad$|mos$|ll)/u,
    letters: /[ñ¿¡]/u,
  },
  mail: {
    direction: "ltr",
    personRequestedSubject: (agent) => `Un visitante pide hablar con una persona (${agent})`,
    personRequestedIntro: (agent) => `Un visitante que habla con ${agent} ha pedido una persona y no hay ningún operador conectado.`,
    unseenVisitorMessageSubject: (agent) => `Un visitante espera su respuesta (${agent})`,
    unseenVisitorMessageIntro: (agent) => `Un visitante de una conversación que usted atiende con ${agent} le ha escrito y aún no lo ha leído.`,
    digestSubject: (count) => (count === 1 ? "1 conversación le necesita" : `${count} conversaciones le necesitan`),
    digestIntro: "Mientras estaba fuera, estas conversaciones necesitaban a una persona:",
    reasonLabel: "Motivo",
    lastMessageLabel: "Último mensaje",
    pageLabel: "Página",
    openConversation: "Abrir la conversación",
    operatorFooter: "Recibe estos correos como operador de Frontdesk. Elija cada aviso, un resumen cada hora o ninguno en su perfil de la consola.",
    replySubject: (operator, agent) => `${operator} le ha respondido (${agent})`,
    replyIntro: (operator) => `${operator} le respondió mientras no estaba:`,
    continueConversation: "Continuar la conversación",
    transcriptSubject: (agent) => `Su conversación con ${agent}`,
    transcriptIntro: (agent) => `Esta es la transcripción de su conversación con ${agent}.`,
    you: "Usted",
    visitorFooter: "Recibe este correo porque dejó su dirección en el chat. Si no fue usted, ignórelo.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `Una prueba de respuestas de ${agent} falla ahora` : `${count} pruebas de respuestas de ${agent} fallan ahora`),
    answerTestsRegressedIntro: (agent) => `Estas preguntas a ${agent} se respondieron bien en la ejecución anterior de sus pruebas, y ahora no:`,
    openAnswerTests: "Abrir las pruebas de respuestas",
  },
};
