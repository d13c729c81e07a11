import type { LanguagePack } from "../language-pack.js";

export const pt: LanguagePack = {
  code: "pt",
  textSearchConfig: "portuguese",
  stopWords: [],
  minContentWordLength: 4,
  smallTalk: {
    phrases: {
      greeting: ["olá", "ola", "oi", "bom dia", "boa tarde", "boa noite"],
      thanks: ["obrigado", "obrigada", "muito obrigado", "muito obrigada", "valeu"],
      goodbye: ["tchau", "até logo", "até mais"],
      acknowledgement: ["ok", "sim", "não", "perfeito", "ótimo", "entendi", "não obrigado", "não obrigada"],
    },
    replies: {
      greeting: "Olá! Como posso ajudar?",
      thanks: "De nada! Posso ajudar em mais alguma coisa?",
      goodbye: "Tchau, e obrigado pela visita!",
      acknowledgement: "Posso ajudar em mais alguma coisa?",
    },
    addressees: [],
  },
  personRequest: {
    articles: ["um", "uma", "alguém"],
    adjectives: ["verdadeir[ao]"],
    nouns: ["pessoa", "atendente", "humano", "operador(?:a)?"],
    // "falar com um atendente" (and "con", as a Spanish speaker may write it)
    patterns: (person) => [new RegExp(`\\bfalar\\s+(?:com|con)\\s+${person}\\b`, "iu")],
  },
  yes: ["sim", "sim por favor", "claro que sim", "pode ser"],
  unsureReplies: {
    nothing_found: "Não tenho certeza sobre isso — não encontrei essa informação neste site. Quer que eu coloque você em contato com uma pessoa?",
    doubtful_match:
      "Não tenho certeza de que isso responda à sua pergunta. Quer que eu coloque você em contato com uma pessoa?",
  },
  pageReplies: {
    quoting: (page) => `Segundo a nossa página “${page}”:`,
    mayHelp: (pages) => (pages.length === 1 ? `Esta página pode ajudar: ${pages.join("")}` : `Estas páginas podem ajudar: ${pages.join("; ")}`),
  },
  backReference: /^(?:isso|isto|esta|este|estes|estas|ele|ela|eles|elas|mas|porém|então|nesse caso)\b/iu,
  continuation: /^\s*(?:e|mas)\b/iu,
  pointingBack: null,
  detection: {
    functionWords: ["o", "a", "os", "as", "é", "você", "seu", "sua", "eu", "meu", "minha", "que", "como", "posso", "para", "de", "do", "da", "e", "um", "uma", "com", "não", "quanto", "quando", "onde", "em", "no", "na", "tem"],
    helpDeskWords: ["horário", "funcionamento", "envio", "envia", "entreg", "reembolso", "devol", "garantia", "pedido", "preço", "pagamento", "cancel", "conta", "senha", "favor", "loja", "grátis", "obrigad", "olá", "domingo", "vocês", "há", "barraca"],
    spelling: /(?:ção$|ções$|ão$|õe|lh|nh|ç)/u,
    letters: /[ãõç]/u,
  },
  mail: {
    direction: "ltr",
    personRequestedSubject: (agent) => `Um visitante pede para falar com uma pessoa (${agent})`,
    personRequestedIntro: (agent) => `Um visitante a falar com ${agent} pediu uma pessoa e nenhum operador está online.`,
    unseenVisitorMessageSubject: (agent) => `Um visitante aguarda a sua resposta (${agent})`,
    unseenVisitorMessageIntro: (agent) => `Um visitante de uma conversa que acompanha com ${agent} escreveu-lhe e ainda não a leu.`,
    digestSubject: (count) => (count === 1 ? "1 conversa precisa de si" : `${count} conversas precisam de si`),
    digestIntro: "Enquanto esteve ausente, estas conversas precisaram de uma pessoa:",
    reasonLabel: "Motivo",
    lastMessageLabel: "Última mensagem",
    pageLabel: "Página",
    openConversation: "Abrir a conversa",
    operatorFooter: "Recebe estes e-mails como operador do Frontdesk. Escolha cada alerta, um resumo por hora ou nenhum no seu perfil na consola.",
    replySubject: (operator, agent) => `${operator} respondeu-lhe (${agent})`,
    replyIntro: (operator) => `${operator} respondeu enquanto esteve ausente:`,
    continueConversation: "Continuar a conversa",
    transcriptSubject: (agent) => `A sua conversa com ${agent}`,
    transcriptIntro: (agent) => `Aqui está a transcrição da sua conversa com ${agent}.`,
    you: "Você",
    visitorFooter: "Recebe este e-mail porque deixou o seu endereço no chat. Se não foi você, ignore-o.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `Um teste de resposta de ${agent} falha agora` : `${count} testes de resposta de ${agent} falham agora`),
    answerTestsRegressedIntro: (agent) => `Estas perguntas a ${agent} foram bem respondidas na execução anterior dos testes, e agora não:`,
    openAnswerTests: "Abrir os testes de resposta",
  },
};
